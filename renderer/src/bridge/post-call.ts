/** One call to the browser host, as the page and the calls' worker both send it. */
export function postCall(url: string, body: string): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
}
