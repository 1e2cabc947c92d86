import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import{a,b,c,d,e,f}from"./chunk-LFAXEF4G.js";import"./chunk-QL6PVKFK.js";import"./chunk-TZN7URKK.js";export{a as ALLOW_HOSTS_ENV,d as checkAddress,c as checkUrl,e as effectivePort,f as isAllowListed,b as parseAllowHosts};
