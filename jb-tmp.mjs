import { Bash } from 'just-bash';
const cases = process.argv.slice(2);
for (const c of cases) {
  const b = new Bash({ files: { '/ws/f.txt': 'a'.repeat(30) + '!\n', ['/ws/' + 'a'.repeat(60)]: 'x' }, cwd: '/ws', executionLimits: { maxExecutionTimeMs: 2000 } });
  const t = Date.now();
  const r = await b.exec(c);
  console.log(JSON.stringify(c), r.exitCode, Date.now() - t, 'ms', JSON.stringify((r.stdout + r.stderr).slice(0, 100)));
}
