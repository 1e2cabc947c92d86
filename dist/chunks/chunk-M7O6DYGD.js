import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
var e=3;function n(r,t){return t?r+1:0}function o(r,t){return t?r>=3?"reformulate":"skip":"extract"}export{e as a,n as b,o as c};
