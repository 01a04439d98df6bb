import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Platform } from '../../platform/context.js';
import { errorResponses } from '../../platform/schemas.js';
import { VendorFlowState, VendorTokenParams } from './kyc.schemas.js';
import { beginVendorFlow, submitVendorFlow } from './service/vendor-flow.js';

const tags = ['kyc'];
const schema = (summary: string) => ({
  tags,
  summary,
  // Authenticated by the vendor access token in the path (a secret), not by a tenant's bearer key.
  security: [],
  params: VendorTokenParams,
  response: { 200: VendorFlowState, ...errorResponses(404, 409) },
});

/**
 * The sandbox stub vendor's flow, walked by a tester with the check's vendor_access_token. Registered outside
 * the tenant API's bearer-key scope: the user holds the token, never the tenant's API key.
 */
export function kycSandboxVendorRoutes(platform: Platform): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/kyc/sandbox-vendor/:token/begin',
      { schema: schema('Sandbox vendor: the user begins verification (→ in_progress, kyc.started)') },
      (req) => beginVendorFlow(platform, req.params.token),
    );

    app.post(
      '/kyc/sandbox-vendor/:token/submit',
      { schema: schema('Sandbox vendor: the user uploads the documents (→ pending_review, kyc.submitted)') },
      (req) => submitVendorFlow(platform, req.params.token),
    );
  };
}
