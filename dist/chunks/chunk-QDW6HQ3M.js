import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
var o=/[\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;function n(t){return t.replace(o,u=>{let r=u.charCodeAt(0);return r<=255?`\\x${r.toString(16).padStart(2,"0")}`:`\\u${r.toString(16).padStart(4,"0")}`})}function e(t){process.stdout.write(`${n(t)}
`)}function i(t){process.stderr.write(`${n(t)}
`)}export{n as a,e as b,i as c};
