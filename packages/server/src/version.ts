/** The API's version, as /v1/server and the OpenAPI document report it. */
export const apiVersion = '0.1.0';
