import { crashScenario, exhaustionScenario } from './crashScenarios.ts';

crashScenario('store');
exhaustionScenario();
