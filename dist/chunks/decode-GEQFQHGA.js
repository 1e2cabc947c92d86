import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import{a,b}from"./chunk-PGUV7SQ6.js";import"./chunk-67BG23Y2.js";export{b as decodeBody,a as parseContentType};
