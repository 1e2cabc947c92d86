import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import{a,b,c,d,e,f,g,h,i}from"./chunk-USD5DODL.js";import"./chunk-TZN7URKK.js";export{f as CONTEXT_WEIGHT,a as DEFAULT_BUDGET_CHARS,i as bestWindow,b as outline,d as pageFrom,g as rankedPassages,h as rankedPassagesAcross,c as selectPassages,e as stripClosingHashes};
