import { registerEvents } from '../../events/registry.ts';
import { testEvents } from '../../events/test/index.ts';
import '../../events/catalogue.ts';

registerEvents(...testEvents);

export { TestHappened } from '../../events/test/index.ts';
