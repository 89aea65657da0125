import type { AdversarialInput } from './adversarial-inputs.js';

/** Issue 24's red-team shapes for the text formats (JSON, TOML, YAML, Dockerfile, requirements). */
export const TEXT_INPUTS: AdversarialInput[] = [];
