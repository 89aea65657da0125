import type { AdversarialInput } from './adversarial-inputs.js';

/** Issue 24's red-team shapes for the XML formats (CycloneDX XML, pom.xml, NuGet projects). */
export const XML_INPUTS: AdversarialInput[] = [];
