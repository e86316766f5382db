import { agentWorld } from './src/agent/test-worlds';
import { agentEvidence, parseAgentConfig } from './src/index';
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
for (const [phi, trainBars, bars, seed] of [[0.25, 3000, 9000, 7], [0.3, 2000, 8000, 7], [0, 2000, 8000, 7], [0, 2000, 8000, 8], [0,3000,9000,9]]) {
  const config = parseAgentConfig({ trainBars, horizonBars: 4, feeRate: 0.0002, slippage: 0.0001, deadZone: 0.0005, expiryHours: 48, l2: 0.05 });
  const world = agentWorld({ bars, seed, phi, aux: true });
  const t = cpu();
  const ev = agentEvidence({ snapshot: world, config });
  console.log(phi, trainBars, 'cpu ms', (cpu() - t).toFixed(0), ev.folds.length, ev.oos.trades, ev.oos.totalReturn.toFixed(3), ev.gates.map(g => `${g.gate}:${g.passed}:${g.value?.toFixed(3)}`).join(' '), ev.cv.meanAccuracy.toFixed(3), ev.cv.meanBaselineAccuracy.toFixed(3));
}
