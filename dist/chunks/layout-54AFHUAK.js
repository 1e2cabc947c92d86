import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import{a,b,c,d,e,f,g,h,i,j}from"./chunk-YDEFOXUC.js";import"./chunk-67BG23Y2.js";export{a as MAX_PAGES,j as dropPageMarkers,e as dropRunningLines,i as escapeLine,c as firstPageHeading,f as joinLines,d as pageLines,b as pdfToMarkdown,h as softHyphen,g as vocabulary};
