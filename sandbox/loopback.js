'use strict';
// Which addresses and requests count as this machine's own: the sandbox hands out every app's
// secrets and sends signed deliveries, so what a browser can make it do is bounded here.
const net = require('node:net');

const LOOPBACK = new net.BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** 127.0.0.0/8, ::1 or localhost: an address no other machine reaches. */
function isLoopback(host) {
  // A name other than localhost, or no address at all, is no address in the list.
  return host.toLowerCase() === 'localhost' || LOOPBACK.check(host, net.isIPv6(host) ? 'ipv6' : 'ipv4');
}

/** The host name of a URL or a Host header's value, without IPv6 brackets; null when it is none. */
function hostnameOf(url) {
  try {
    return new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
  } catch {
    return null;
  }
}

/**
 * Why a request to the control API may have been sent by a web page rather than by you, or null.
 * A Host that is not a loopback name is a name rebound to 127.0.0.1 (DNS rebinding: the attacker's
 * page would then read the answers); an Origin other than the Host's own is another site's page
 * (or n8n's editor) sending a request the browser lets through unread.
 */
function foreignBrowserRequest(req) {
  const host = req.headers.host ?? '';
  const hostname = hostnameOf(`http://${host}`);
  if (hostname === null || !isLoopback(hostname)) return `Host ${JSON.stringify(host)} is not a loopback name (127.0.0.1, localhost, [::1]).`;
  const origin = req.headers.origin;
  if (origin !== undefined && origin.toLowerCase() !== `http://${host}`.toLowerCase()) {
    return `Requests from pages of ${JSON.stringify(origin)} are not taken: only the sandbox's own pages may call it.`;
  }
  return null;
}

module.exports = { isLoopback, hostnameOf, foreignBrowserRequest };
