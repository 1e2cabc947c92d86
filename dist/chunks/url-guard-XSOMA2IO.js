import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import{a,b,c,d,e,f}from"./chunk-ZJLPJJVV.js";import"./chunk-QHKRQM7O.js";import"./chunk-67BG23Y2.js";export{a as ALLOW_HOSTS_ENV,d as checkAddress,c as checkUrl,e as effectivePort,f as isAllowListed,b as parseAllowHosts};
