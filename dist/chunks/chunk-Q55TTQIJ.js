import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
function t(u,l){let e=0,n=u.length;for(;e<n;){let r=e+n>>>1;u[r]<=l?e=r+1:n=r}return e}export{t as a};
