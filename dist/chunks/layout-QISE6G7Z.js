import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import{a,b,c,d,e,f,g}from"./chunk-EI35TA6F.js";import"./chunk-TZN7URKK.js";export{a as MAX_PAGES,g as dropPageMarkers,d as dropRunningLines,f as escapeLine,e as joinLines,c as pageLines,b as pdfToMarkdown};
