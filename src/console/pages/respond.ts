import type { FastifyReply } from 'fastify';
import type { Html } from '../../platform/html.js';

/** Sends a rendered page. */
export const sendPage = (reply: FastifyReply, body: Html, status = 200) =>
  reply.code(status).type('text/html; charset=utf-8').send(body.value);

/** After a change, back to a page (303: the browser GETs it, so a reload never posts twice), with a notice. */
export const redirectWithNotice = (reply: FastifyReply, to: string, notice: string) => {
  const url = new URL(to, 'http://console');
  url.searchParams.set('notice', notice);
  return reply.redirect(url.pathname + url.search, 303);
};
