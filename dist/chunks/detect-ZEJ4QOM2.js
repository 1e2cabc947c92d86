import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import{a,b,c,d}from"./chunk-WZZNZKKH.js";import"./chunk-67BG23Y2.js";export{b as GENERIC_TYPES,a as PDF_TYPES,d as fullTextUrl,c as hasPdfSignature};
