import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import{a,b,c,d,e}from"./chunk-N7IJZBN7.js";import"./chunk-TZN7URKK.js";export{b as UNTRUSTED_TAG,d as fence,a as sanitizeText,e as unfence,c as wrapUntrusted};
