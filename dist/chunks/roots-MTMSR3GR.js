import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import{a,b,c,d}from"./chunk-WIMYS62R.js";import"./chunk-67BG23Y2.js";export{a as LOCAL_ROOTS_ENV,b as ROOTS_SEPARATOR,c as defaultRootName,d as parseRoots};
