// `deep-research serve --http`: runs until interrupted; the URL goes to stdout for the person who typed it.
import { HttpOptionsError, parseHttpOptions } from '../http/options.js';
import { serveHttp } from '../http/serve.js';

export async function runServe(argv: string[]): Promise<number> {
  let options;
  try {
    options = parseHttpOptions(argv, process.env);
  } catch (err) {
    if (err instanceof HttpOptionsError) {
      process.stderr.write(`deep-research serve: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
  const handle = await serveHttp(options).catch((err: NodeJS.ErrnoException) => {
    const why = err.code === 'EADDRINUSE' ? `port ${options.port} is in use; pick another with --port` : err.code === 'EADDRNOTAVAIL' ? `${options.host} is not an address of this machine` : err.message;
    process.stderr.write(`deep-research serve: cannot listen on ${options.host}:${options.port}: ${why}\n`);
    return undefined;
  });
  if (!handle) return 1;
  process.stdout.write(`deep-research: MCP over Streamable HTTP at ${handle.url}${options.token ? ' (bearer token required)' : ''}\n`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await handle.close();
  return 0;
}
