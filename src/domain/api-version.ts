/**
 * The version of the interface this service implements (the OpenAPI document's, MCP's, SARIF's
 * tool). Its own module so the CLI's reports, and the GitHub Action's bundle built from them,
 * name it without importing the HTTP app and everything behind it.
 */
export const API_VERSION = '0.1.0';
