// The console's browser entry (a placeholder until the console itself lands): bundled with its
// stylesheet and lightweight-charts by src/console/build.ts.
import './console.css';
import { createChart } from 'lightweight-charts';

document.title = 'mds console';
const app = document.getElementById('app');
if (app !== null) createChart(app, { autoSize: true });
