// The built-in demo agent (bundled to dist/demo-agent.js, run with plain node, no arguments):
// what a newcomer sees without an API key. Its behaviour is the data in demoScript.ts.
// TANDEM_DEMO_TIME_SCALE scales its pauses (0 = as fast as possible, used by tests).
import { demoScript } from './demoScript';
import { runScriptedAgent } from './scriptedAgent';

const scale = process.env.TANDEM_DEMO_TIME_SCALE;
runScriptedAgent(
  demoScript,
  { input: process.stdin, output: process.stdout, stderr: process.stderr },
  {
    timeScale: scale !== undefined && scale !== '' && Number.isFinite(Number(scale)) ? Number(scale) : 1,
  },
);
