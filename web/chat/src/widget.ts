/**
 * The web chat's loader: `<script src="https://baton.example.com/chat/widget.js" async></script>`
 * on any page puts a "Chat with us" button in the corner that opens the chat in a frame. The
 * chat runs in that frame, on Baton's own origin: the host page never sees the customer's token
 * or their messages, and the chat's strict CSP holds whatever the host page allows. The host
 * page's origin must be in the server's `chat.embedOrigins` (the frame's `frame-ancestors`).
 *
 * Everything here is built with DOM calls and CSSOM properties (no inline markup, no `<style>`),
 * so a host page with a strict CSP needs only `script-src` and `frame-src` for Baton's origin.
 *
 * Options, as attributes of the script tag: `data-label` (the button's text, default "Chat with us").
 */
(() => {
  const script = document.currentScript as HTMLScriptElement | null;
  if (!script?.src) return;
  const origin = new URL(script.src).origin;
  const label = script.dataset['label'] || 'Chat with us';
  if (document.querySelector('[data-baton-chat]')) return;

  const host = document.createElement('div');
  host.dataset['batonChat'] = '';
  Object.assign(host.style, { position: 'fixed', right: '1rem', bottom: '1rem', zIndex: '2147483000' });
  const root = host.attachShadow({ mode: 'open' });

  const panel = document.createElement('div');
  Object.assign(panel.style, {
    display: 'none',
    width: 'min(24rem, calc(100vw - 2rem))',
    height: 'min(36rem, calc(100vh - 6rem))',
    marginBottom: '0.75rem',
    borderRadius: '0.75rem',
    overflow: 'hidden',
    boxShadow: '0 0.5rem 2rem rgba(0, 0, 0, 0.25)',
    background: '#ffffff',
  });
  const frame = document.createElement('iframe');
  frame.title = label;
  frame.src = `${origin}/chat/embed`;
  Object.assign(frame.style, { width: '100%', height: '100%', border: '0', display: 'block' });
  panel.id = 'baton-chat-panel';
  panel.append(frame);

  const button = document.createElement('button');
  button.type = 'button';
  button.textContent = label;
  button.setAttribute('aria-expanded', 'false');
  button.setAttribute('aria-controls', panel.id);
  Object.assign(button.style, {
    display: 'block',
    marginLeft: 'auto',
    font: '600 1rem system-ui, sans-serif',
    color: '#ffffff',
    background: '#0b57d0',
    border: '0',
    borderRadius: '2rem',
    padding: '0.75rem 1.25rem',
    minHeight: '2.75rem',
    cursor: 'pointer',
    boxShadow: '0 0.25rem 1rem rgba(0, 0, 0, 0.2)',
  });
  button.addEventListener('click', () => {
    const open = panel.style.display === 'none';
    panel.style.display = open ? 'block' : 'none';
    button.setAttribute('aria-expanded', String(open));
    if (open) frame.focus();
  });

  root.append(panel, button);
  const mount = () => document.body.append(host);
  if (document.body) mount();
  else document.addEventListener('DOMContentLoaded', mount, { once: true });
})();
