import type { Config } from '../config/config.js';
import type { RecordDeps } from '../operations/deps.js';
import { DELIVERY_DEFAULTS, type DeliveryDeps, type DeliverySettings } from '../operations/webhook-delivery.js';

/** The webhook sender's settings as configured (TENDED_WEBHOOK_ALLOW_PRIVATE) over its defaults. */
export function deliverySettings(config: Config): DeliverySettings {
  return { ...DELIVERY_DEFAULTS, allowPrivate: config.webhookAllowPrivate };
}

export function deliveryDeps(config: Config, deps: RecordDeps): DeliveryDeps {
  return { store: deps.store, notary: deps.notary, clock: deps.clock, publicUrl: config.publicUrl };
}
