import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import{a,b,c}from"./chunk-FJEZDIXO.js";import"./chunk-TZN7URKK.js";export{b as UNTRUSTED_TAG,a as sanitizeText,c as wrapUntrusted};
