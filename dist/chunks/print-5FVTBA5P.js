import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import{a,b,c}from"./chunk-QDW6HQ3M.js";import"./chunk-67BG23Y2.js";export{c as err,b as out,a as printable};
