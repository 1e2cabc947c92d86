// One version for the server's handshake and `deep-research --version`; package.json must agree (tested).
export const VERSION = '0.1.0';
