import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import{a,b,c,d,e,f,g,h,i,j,k}from"./chunk-IJ6HFBGO.js";import"./chunk-67BG23Y2.js";export{a as MAX_PAGES,k as dropPageMarkers,f as dropRunningLines,j as escapeLine,e as exponent,c as firstPageHeading,g as joinLines,d as pageLines,b as pdfToMarkdown,i as softHyphen,h as vocabulary};
