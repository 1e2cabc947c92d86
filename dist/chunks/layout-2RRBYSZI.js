import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import{a,b,c,d,e,f,g,h,i}from"./chunk-Q4KA33KU.js";import"./chunk-TZN7URKK.js";export{a as MAX_PAGES,i as dropPageMarkers,d as dropRunningLines,h as escapeLine,e as joinLines,c as pageLines,b as pdfToMarkdown,g as softHyphen,f as vocabulary};
