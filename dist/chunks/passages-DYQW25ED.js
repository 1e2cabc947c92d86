import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import{a,b,c,d,e,f}from"./chunk-UB3Z7XAE.js";import"./chunk-TZN7URKK.js";export{a as DEFAULT_BUDGET_CHARS,b as outline,d as pageFrom,f as rankedPassages,c as selectPassages,e as stripClosingHashes};
