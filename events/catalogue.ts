import { accountEvents } from './account/index.ts';
import { registerEvents } from './registry.ts';

/** Every event of the service, registered once. Importing this module is enough. */
export const catalogue = [...accountEvents];

registerEvents(...catalogue);
