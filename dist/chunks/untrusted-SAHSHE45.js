import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import{a,b,c,d,e,f,g}from"./chunk-G25I6O46.js";import"./chunk-WRSOPWCP.js";import"./chunk-67BG23Y2.js";export{f as MAX_QUOTED_VALUE,b as UNTRUSTED_TAG,d as fence,g as fenceServerValue,a as sanitizeText,e as unfence,c as wrapUntrusted};
