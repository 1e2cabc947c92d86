// A page that never ends (issue 27 item 7; SPEC 7 retries): it was answered at 45.1 s of the call's 45, with
// a message naming only the last retry's 4 s. The same page at a ninth of the scale, through a real client.
import { describe, expect, it } from 'vitest';
import { connect } from '../helpers/mcp.js';
import { startServer } from '../fetch/helpers.js';
import { brief, QUESTION } from '../helpers/fixtures.js';

describe('a never-ending page', () => {
  it('is answered inside the call\'s limit, with what the time went on', async () => {
    const web = await startServer((req, res) => {
      if (req.url === '/gone') res.writeHead(404).end();
    });
    const h = await connect({ env: { DEEP_RESEARCH_ALLOW_HOSTS: web.hostPort }, fetch: { timeoutMs: 2_000, totalTimeoutMs: 5_000, baseDelayMs: 50 } });
    try {
      const { run_id } = await h.ok('start_run', { question: QUESTION, brief: brief() });
      // A first call loads the fetch modules (slow from source under vitest; a bundle loads them in ms).
      await h.refused('fetch_source', { run_id, url: `${web.origin}/gone` });
      const t0 = performance.now();
      const text = await h.refused('fetch_source', { run_id, url: `${web.origin}/never` });
      const took = performance.now() - t0;
      expect(took).toBeLessThan(5_000);
      expect(web.requests.filter((u) => u === '/never')).toHaveLength(3);
      expect(text).toMatch(/The call spent 4\.\d s of its 5 s limit on it: attempt 1 got no page after 2\.\d s, a wait of 0\.\d s, attempt 2 got no page after 2\.\d s, a wait of 0\.\d s, attempt 3 got no page after 0\.\d s\./);
    } finally {
      await h.close();
      await web.close();
    }
  }, 20_000);
});
