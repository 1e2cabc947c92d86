import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import{a,b,c,d}from"./chunk-JZUDZYKY.js";import"./chunk-67BG23Y2.js";export{d as otherRelease,a as releasesNamed,c as sameRelease,b as targetReleases};
