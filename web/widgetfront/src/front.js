// A minimal Jupyter front end for routelab's browser tests: it starts a
// kernel on a Jupyter server, runs cells, renders their outputs and renders
// Jupyter widgets (protocol 2.x, ipywidgets 8's models) with the
// @jupyter-widgets html-manager. Everything it needs is in the bundle; it
// loads nothing from the network but the server's API.

// Deep imports keep the bundle to what is used: the packages' index modules
// also pull in the AMD embedding code (which fetches widget modules from a
// CDN), Font Awesome, and the REST clients of everything a server offers.
import { HTMLManager } from '@jupyter-widgets/html-manager/lib/htmlmanager';
import { shims } from '@jupyter-widgets/base';
import { ServerConnection } from '@jupyterlab/services/lib/serverconnection';
import { KernelConnection } from '@jupyterlab/services/lib/kernel/default';
import * as KernelAPI from '@jupyterlab/services/lib/kernel/restapi';
import * as KernelMessage from '@jupyterlab/services/lib/kernel/messages';

const WIDGET_MIME = 'application/vnd.jupyter.widget-view+json';

const log = [];
let kernel = null;
let manager = null;
const cells = new Map(); // parent msg_id -> cell element
const pending = new Set(); // promises (renders) and msg_ids (requests) not yet done
const outputWidgets = new Set(); // Output models, which capture output while their msg_id is set

function note(what, err) {
  const text = what + ': ' + (err && err.stack ? err.stack : String(err));
  log.push(text);
  console.error(text);
}

window.addEventListener('error', (e) => note('page error', e.error || e.message));
window.addEventListener('unhandledrejection', (e) => note('unhandled rejection', e.reason));

// track keeps p in pending until it settles, logging a failure.
function track(p, what) {
  pending.add(p);
  p.catch((err) => note(what, err)).finally(() => pending.delete(p));
  return p;
}

// WidgetManager routes the output of messages a widget sends (a button's
// click handler printing, say) into the cell that shows the widget, as the
// Notebook does; the html-manager alone drops it.
class WidgetManager extends HTMLManager {
  callbacks(view) {
    const cell = view && view.el && view.el.closest('.cell');
    if (!cell) {
      return {};
    }
    return {
      iopub: {
        output: (msg) => output(cell, msg),
        clear_output: (msg) => clear(cell, msg.content.wait),
      },
    };
  }

  // A model the front end creates itself opens its comm through the
  // kernel; html-manager's placeholder would drop its messages silently.
  async _create_comm(target, modelId, data, metadata, buffers) {
    const comm = kernel.createComm(target, modelId);
    comm.open(data, metadata, buffers);
    return new shims.services.Comm(comm);
  }
}

function stripAnsi(s) {
  return s.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '');
}

function pre(cls, text) {
  const el = document.createElement('pre');
  el.className = cls;
  el.textContent = text;
  return el;
}

// html inserts markup and runs its scripts, in order: scripts set through
// innerHTML never run, so each is replaced by a fresh copy.
function html(el, markup) {
  el.innerHTML = markup;
  for (const old of el.querySelectorAll('script')) {
    const s = document.createElement('script');
    for (const a of old.attributes) {
      s.setAttribute(a.name, a.value);
    }
    s.async = false;
    s.textContent = old.textContent;
    old.replaceWith(s);
  }
}

// renderBundle fills el with the richest representation of a mime bundle
// this front end knows.
function renderBundle(el, data) {
  if (data[WIDGET_MIME]) {
    el.classList.add('widget-view');
    const id = data[WIDGET_MIME].model_id;
    track((async () => {
      const model = await manager.get_model(id);
      const view = await manager.create_view(model, {});
      await manager.display_view(view, el);
    })(), 'rendering widget ' + id);
  } else if (data['text/html'] !== undefined) {
    el.classList.add('html-output');
    html(el, data['text/html']);
  } else if (data['image/svg+xml'] !== undefined) {
    el.classList.add('svg-output');
    el.innerHTML = data['image/svg+xml'];
  } else if (data['text/plain'] !== undefined) {
    el.appendChild(pre('text', data['text/plain']));
  }
}

function displayElement(content) {
  const el = document.createElement('div');
  el.className = 'output';
  const id = content.transient && content.transient.display_id;
  if (id) {
    el.dataset.displayId = id;
  }
  renderBundle(el, content.data || {});
  return el;
}

function clear(cell, wait) {
  if (wait) {
    cell.dataset.clearPending = '1';
  } else {
    cell.replaceChildren();
  }
}

// output appends the output message msg to cell.
function output(cell, msg) {
  if (cell.dataset.clearPending) {
    delete cell.dataset.clearPending;
    cell.replaceChildren();
  }
  const c = msg.content;
  switch (msg.header.msg_type) {
    case 'stream': {
      const el = pre('stream', c.text);
      el.dataset.name = c.name;
      cell.appendChild(el);
      break;
    }
    case 'error':
      cell.appendChild(pre('error', stripAnsi((c.traceback || []).join('\n')) || c.ename + ': ' + c.evalue));
      break;
    case 'execute_result':
    case 'display_data':
      cell.appendChild(displayElement(c));
      break;
  }
}

// update replaces every output of the display id, whichever cell shows it.
function update(content) {
  const id = content.transient && content.transient.display_id;
  if (!id) {
    return;
  }
  for (const el of document.querySelectorAll('[data-display-id="' + CSS.escape(id) + '"]')) {
    el.replaceWith(displayElement(content));
  }
}

// capture gives the output of a request to the Output widget whose msg_id
// names it (ipywidgets' "with out:"), as JupyterLab does; it tells whether
// one took it.
function capture(parent, msg) {
  const type = msg.header.msg_type;
  for (const model of outputWidgets) {
    if (!parent || model.get('msg_id') !== parent) {
      continue;
    }
    if (type === 'clear_output') {
      model.clear_output(msg.content.wait);
    } else if (['stream', 'error', 'execute_result', 'display_data'].includes(type)) {
      model.outputs.add({ output_type: type, ...msg.content });
    } else {
      return false;
    }
    return true;
  }
  return false;
}

function onIOPub(_, msg) {
  const type = msg.header.msg_type;
  const parent = msg.parent_header && msg.parent_header.msg_id;
  if (type === 'status' && msg.content.execution_state === 'idle') {
    pending.delete(parent);
  }
  if (type === 'update_display_data') {
    update(msg.content);
    return;
  }
  if (capture(parent, msg)) {
    return;
  }
  const cell = cells.get(parent);
  if (!cell) {
    return; // a widget's message: its callbacks route the output
  }
  if (type === 'clear_output') {
    clear(cell, msg.content.wait);
  } else {
    output(cell, msg);
  }
}

// onAny counts each shell request as pending until its idle status.
function onAny(_, { msg, direction }) {
  if (direction === 'send' && msg.channel === 'shell') {
    pending.add(msg.header.msg_id);
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// waitIOPub repeats kernel_info until its status comes back on iopub: the
// server's subscription to the kernel's iopub may not be live yet, and
// anything published before it is lost.
async function waitIOPub() {
  for (let i = 0; i < 100; i++) {
    const msg = KernelMessage.createMessage({
      msgType: 'kernel_info_request', channel: 'shell', session: kernel.clientId, content: {},
    });
    const future = kernel.sendShellMessage(msg, true, true);
    let seen = false;
    future.onIOPub = (m) => {
      if (m.header.msg_type === 'status') {
        seen = true;
      }
    };
    await Promise.race([future.done.catch(() => {}), sleep(500)]);
    if (seen) {
      return;
    }
    pending.delete(msg.header.msg_id);
    future.dispose();
  }
  throw new Error('no iopub traffic from the kernel');
}

async function connect({ baseUrl, wsUrl, token, kernelName }) {
  const settings = ServerConnection.makeSettings({ baseUrl, wsUrl, token, appendToken: true });
  const model = await KernelAPI.startNew({ name: kernelName }, settings);
  kernel = new KernelConnection({ model, serverSettings: settings, handleComms: true });
  kernel.iopubMessage.connect(onIOPub);
  await kernel.info;
  await waitIOPub();
  // Only now: an idle status lost before iopub was live would stay pending.
  kernel.anyMessage.connect(onAny);
  manager = new WidgetManager();
  kernel.registerCommTarget(manager.comm_target_name, async (comm, msg) => {
    const model = await manager.handle_comm_open(new shims.services.Comm(comm), msg);
    if (model.name === 'OutputModel' && model.module === '@jupyter-widgets/output') {
      outputWidgets.add(model);
      model.once('comm:close', () => outputWidgets.delete(model));
    }
    return model;
  });
  await idle();
  return kernel.id;
}

// run executes code in a new cell and resolves to the reply's status once
// the cell's outputs (widget views included) are rendered.
async function run(code) {
  const cell = document.createElement('div');
  cell.className = 'cell';
  cell.dataset.index = String(document.querySelectorAll('.cell').length);
  document.getElementById('cells').appendChild(cell);
  const future = kernel.requestExecute({ code, stop_on_error: true });
  cells.set(future.msg.header.msg_id, cell);
  const reply = await future.done;
  await idle();
  return reply.content.status;
}

// idle resolves once the kernel is idle, every request sent has seen its
// idle status and every widget view has rendered.
async function idle(timeoutMs = 20000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await Promise.allSettled([...pending].filter((p) => p instanceof Promise));
    if (pending.size === 0 && kernel.status === 'idle') {
      return;
    }
    if (Date.now() > deadline) {
      throw new Error('not idle: kernel ' + kernel.status + ', pending ' + [...pending].map(String).join(', '));
    }
    await sleep(20);
  }
}

async function shutdown() {
  if (kernel) {
    await kernel.shutdown();
  }
}

window.front = { connect, run, idle, shutdown, log, get kernel() { return kernel; }, get manager() { return manager; } };
