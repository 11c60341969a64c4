import {
  AccountOpened,
  ApiKeyIssued,
  ApiKeyRevoked,
  CreditCharged,
  CreditRefunded,
  CreditsAdjusted,
  CreditsPurchased,
  UnlimitedSet,
  PersonalDataErased,
} from './events.ts';
import { streamIdOf, type StreamId } from '../streamId.ts';

export * from './events.ts';

/** Every event of the account stream, for the catalogue (events/catalogue.ts) to register. */
export const accountEvents = [
  AccountOpened,
  ApiKeyIssued,
  ApiKeyRevoked,
  UnlimitedSet,
  PersonalDataErased,
  CreditsPurchased,
  CreditCharged,
  CreditRefunded,
  CreditsAdjusted,
] as const;

/** The stream of one account. */
export const accountStreamId = (accountId: string): StreamId<'account'> => streamIdOf('account', accountId);
