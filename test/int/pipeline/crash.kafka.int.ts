import { crashScenario } from './crashScenarios.ts';

crashScenario('kafka');
