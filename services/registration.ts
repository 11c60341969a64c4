import { catalogue } from '../events/catalogue.ts';
import { registerEvents } from '../events/registry.ts';
import { useInlineProjections } from '../infra/eventStore/inlineProjections.ts';
import { useReactions } from '../infra/reactions.ts';
import { inlineProjections } from '../projections/inline.ts';
import { REACTIONS } from './reactions.ts';

/**
 * What a process of the service registers before it appends or reads an event: the event catalogue,
 * the read models written in the append's transaction, and the reactions. Called once at start-up
 * by whatever builds the service (services/main.ts, the operator CLI, the bench, the tests); a
 * second call changes nothing. Forgotten, the first append or read throws and names this function.
 */
export function registerService(): void {
  registerEvents(...catalogue);
  useInlineProjections(inlineProjections);
  useReactions(REACTIONS);
}
