/**
 * The ceiling for our framework on this machine: Fastify with the service's body parsing, validator settings,
 * logger and compiled response schema, answering POST /v1/aml/event without authentication or a database.
 * Every endpoint's maximum throughput is reported as a ratio to this one's.
 */
import Fastify, { LogController } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import pino from 'pino';
import { systemClock } from '../src/platform/clock.js';
import { validatorCompiler } from '../src/platform/validation.js';
import { AmlEventRequest, EventAck } from '../src/areas/aml/aml.schemas.js';

const app = Fastify({
  loggerInstance: pino({ level: 'info' }),
  logController: new LogController({ disableRequestLogging: true }),
}).withTypeProvider<TypeBoxTypeProvider>();
app.setValidatorCompiler(validatorCompiler({ clock: systemClock }));

let n = 0;
app.post(
  '/v1/aml/event',
  { schema: { body: AmlEventRequest, response: { 202: EventAck } } },
  async (request, reply) =>
    reply.code(202).send({
      event_id: `evt_${++n}`,
      transaction_id: request.body.transaction_id,
      received_at: new Date(),
      processing: 'queued' as const,
    }),
);

await app.listen({ port: 0, host: '127.0.0.1' });
process.send?.({ port: (app.server.address() as { port: number }).port });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
