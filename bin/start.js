// `npm start`: the whole service, from the build in dist/.
import { runCompiled } from './compiled.js';

await runCompiled('services/main');
