// Prints tools/list as the server answers it, for the build to embed (see src/tools/index.ts).
import { listTools } from '../src/tools/list-tools.js';
import { TOOLS } from '../src/tools/index.js';

process.stdout.write(JSON.stringify(listTools(TOOLS)));
