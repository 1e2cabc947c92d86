// The tree snapshot lives with the other test helpers; re-exported for the real-CLI tests.
export { snapshot } from '../helpers/tree.js';
