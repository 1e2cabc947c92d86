import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import{a,b,c,d}from"./chunk-URVFBSFE.js";import"./chunk-TZN7URKK.js";export{b as UNTRUSTED_TAG,d as fenceEscaped,a as sanitizeText,c as wrapUntrusted};
