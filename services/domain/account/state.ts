import type { AdmissionEvent } from '../../../events/account/admission.ts';
import type { ApplyAdmissionEvent } from '../../../events/account/applyAdmission.ts';
import type { AccountBulkEvent } from '../../../events/account/bulk.ts';
import type { AccountEvent, AccountRole, ApiKeyScope, ChargeKind } from '../../../events/account/index.ts';
import { balanceDelta } from './credits.ts';
import { emptyMap, getIn, setIn, type PersistentMap } from './persistentMap.ts';

/** Every event of an account's stream: the ledger's, admission's and the batch's. */
export type AccountStreamEvent = AccountEvent | AdmissionEvent | ApplyAdmissionEvent | AccountBulkEvent;

const withMember = (set: ReadonlySet<string>, member: string): ReadonlySet<string> => new Set(set).add(member);
const withoutMember = (set: ReadonlySet<string>, member: string): ReadonlySet<string> => {
  const next = new Set(set);
  next.delete(member);
  return next;
};

export interface ApiKeyState {
  keyHash: string;
  keyPrefix: string;
  scopes: readonly ApiKeyScope[];
  revoked: boolean;
}

export interface ChargeState {
  kind: ChargeKind;
  subjectId: string;
  credits: number;
  refunded: boolean;
}

export interface OpenedAccount {
  status: 'Open';
  accountId: string;
  /** As the log holds it: sealed under the account's personal-data key. */
  sealedEmail: string;
  role: AccountRole;
  unlimited: boolean;
  /** Names the webhook secret kept outside the log (infra/secrets/webhookSecrets.ts). */
  webhookSecretRef: string;
  /** The personal-data key was destroyed (`accounts forget`). */
  erased: boolean;
  /** Never below zero (the decider refuses anything that would take it there). */
  balance: number;
  /** Credits charged and not refunded (spec 2.8 `used`). */
  used: number;
  /** By keyId (an account has a handful: a plain object). */
  keys: Readonly<Record<string, ApiKeyState>>;
  /**
   * By chargeId. A chargeId stays here for ever: a subject is charged at most once. These three
   * grow with the account's whole life, hence persistent maps (persistentMap.ts) rather than objects.
   */
  charges: PersistentMap<ChargeState>;
  /** Credits by paymentId, to make purchases idempotent. */
  payments: PersistentMap<number>;
  /** Delta by adjustmentId, to make adjustments idempotent. */
  adjustments: PersistentMap<number>;
  /** Audits admitted and not released (at most three: admission.ts). */
  auditsInFlight: ReadonlySet<string>;
  /** Apply generations admitted and not released, counted apart from audits. */
  generationsInFlight: ReadonlySet<string>;
  /** The one batch open on the account, if any (spec 4.4 rule 5). */
  openBulkId: string | null;
}

export type AccountState = { status: 'NotOpened' } | OpenedAccount;

export const initialState = (): AccountState => ({ status: 'NotOpened' });

/**
 * Folds one event. Events that do not fit the state (anything before AccountOpened, a second
 * AccountOpened) are ignored: the decider never produces them, and replay must not throw.
 * Nothing is mutated, so a state given to a test or a caller never changes under it.
 */
export const evolve = (state: AccountState, event: AccountStreamEvent): AccountState => {
  if (state.status === 'NotOpened') return event.type === 'AccountOpened' ? opened(event) : state;
  return evolveInFlight(evolveOpened(state, event), event);
};

const opened = (event: Extract<AccountEvent, { type: 'AccountOpened' }>): OpenedAccount => {
  const { accountId, email, role, unlimited, webhookSecret } = event.data;
  return {
    status: 'Open',
    accountId,
    sealedEmail: email,
    role,
    unlimited,
    webhookSecretRef: webhookSecret,
    erased: false,
    balance: 0,
    used: 0,
    keys: {},
    charges: emptyMap(),
    payments: emptyMap(),
    adjustments: emptyMap(),
    auditsInFlight: new Set(),
    generationsInFlight: new Set(),
    openBulkId: null,
  };
};

/** Keys, the unlimited flag, erasure and the ledger's movements. */
const evolveOpened = (state: OpenedAccount, event: AccountStreamEvent): OpenedAccount => {
  switch (event.type) {
    case 'ApiKeyIssued': {
      const { keyId, keyHash, keyPrefix, scopes } = event.data;
      return { ...state, keys: { ...state.keys, [keyId]: { keyHash, keyPrefix, scopes, revoked: false } } };
    }
    case 'ApiKeyRevoked': {
      const key = state.keys[event.data.keyId];
      if (!key) return state;
      return { ...state, keys: { ...state.keys, [event.data.keyId]: { ...key, revoked: true } } };
    }
    case 'UnlimitedSet':
      return { ...state, unlimited: event.data.unlimited };
    case 'PersonalDataErased':
      return { ...state, erased: true };
    case 'CreditsPurchased': {
      const { paymentId, credits } = event.data;
      return {
        ...state,
        balance: state.balance + balanceDelta(event),
        payments: setIn(state.payments, paymentId, credits),
      };
    }
    case 'CreditCharged': {
      const { chargeId, kind, subjectId, credits } = event.data;
      return {
        ...state,
        balance: state.balance + balanceDelta(event),
        used: state.used + credits,
        charges: setIn(state.charges, chargeId, { kind, subjectId, credits, refunded: false }),
      };
    }
    case 'CreditRefunded': {
      const charge = getIn(state.charges, event.data.chargeId);
      if (!charge || charge.refunded) return state;
      return {
        ...state,
        // The charge's own amount is given back, so balance and used stay consistent with it.
        balance: state.balance + charge.credits,
        used: state.used - charge.credits,
        charges: setIn(state.charges, event.data.chargeId, { ...charge, refunded: true }),
      };
    }
    case 'CreditsAdjusted': {
      const { adjustmentId, delta } = event.data;
      return {
        ...state,
        balance: state.balance + balanceDelta(event),
        adjustments: setIn(state.adjustments, adjustmentId, delta),
      };
    }
    default:
      return state;
  }
};

/** What is in flight: audits and generations admitted, the open batch. */
const evolveInFlight = (state: OpenedAccount, event: AccountStreamEvent): OpenedAccount => {
  switch (event.type) {
    case 'AuditAdmitted':
      return { ...state, auditsInFlight: withMember(state.auditsInFlight, event.data.auditId) };
    case 'AuditReleased':
      return { ...state, auditsInFlight: withoutMember(state.auditsInFlight, event.data.auditId) };
    case 'ApplyAdmitted':
      return { ...state, generationsInFlight: withMember(state.generationsInFlight, event.data.revisionId) };
    case 'ApplyReleased':
      return { ...state, generationsInFlight: withoutMember(state.generationsInFlight, event.data.revisionId) };
    case 'BulkOpened':
      return { ...state, openBulkId: event.data.bulkId };
    case 'BulkClosed':
      return state.openBulkId === event.data.bulkId ? { ...state, openBulkId: null } : state;
    default:
      return state;
  }
};
