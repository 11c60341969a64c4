import type { EventDefinition, AnyEventDefinition } from './define.ts';

/**
 * Every event type the process knows, by type name: the catalogue (events/catalogue.ts), registered
 * at start-up (services/registration.ts). Read before that, it throws: a process that forgot would
 * otherwise read stored events without upcasting them and see no credit movement to chain.
 */
const definitions = new Map<string, EventDefinition>();

const known = (): Map<string, EventDefinition> => {
  if (definitions.size === 0)
    throw new Error('no event catalogue registered: call registerService() (services/registration.ts) at start-up');
  return definitions;
};

export const registerEvents = (...defs: AnyEventDefinition[]): void => {
  for (const d of defs) {
    const existing = definitions.get(d.type);
    if (existing && existing !== d) throw new Error(`event type ${d.type} is declared twice`);
    definitions.set(d.type, d);
  }
};

export const eventDefinition = (type: string): EventDefinition => {
  const d = known().get(type);
  if (!d) throw new Error(`unknown event type ${type}`);
  return d;
};

export const hasEventDefinition = (type: string): boolean => known().has(type);

export const allEventDefinitions = (): EventDefinition[] => [...known().values()];
