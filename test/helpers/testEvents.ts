import { registerEvents } from '../../events/registry.ts';
import { testEvents } from '../../events/test/index.ts';
import { registerService } from '../../services/registration.ts';

/** What a test that appends `test` stream events registers first: the service, and that stream. */
export function registerTestEvents(): void {
  registerService();
  registerEvents(...testEvents);
}

export { TestHappened } from '../../events/test/index.ts';
