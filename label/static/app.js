// The labelling page. Every string from the server is shown with
// textContent, never parsed as HTML.
"use strict";
(function () {
  const params = new URLSearchParams(location.search);
  const token = params.get("token") || "";
  let labeller = params.get("labeller") || localStorage.getItem("labeller") || "";
  let current = null;
  let busy = false;
  const $ = (id) => document.getElementById(id);

  function api(method, path, body) {
    const headers = {};
    if (token) headers["Authorization"] = "Bearer " + token;
    const init = { method: method, headers: headers };
    if (body !== undefined) {
      headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    return fetch(path, init).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (data) {
        if (!r.ok) {
          const e = new Error(data.error || r.statusText);
          e.status = r.status;
          throw e;
        }
        return data;
      });
    });
  }

  function withParams(url, extra) {
    const p = new URLSearchParams();
    if (token) p.set("token", token);
    if (extra) p.set("labeller", extra);
    const s = p.toString();
    return s ? url + "?" + s : url;
  }

  function setImage(img, url) {
    if (url) {
      img.src = withParams(url);
      img.hidden = false;
    } else {
      img.removeAttribute("src");
      img.hidden = true;
    }
  }

  function say(text, isError) {
    $("message").textContent = text;
    $("message").className = isError ? "error" : "";
  }

  function showProgress(p) {
    let s = "answered " + p.answered + " (you " + p.mine + ")";
    if (p.remaining !== null && p.remaining !== undefined) {
      s += " · " + p.remaining + " of " + p.budget + " to go";
    }
    $("progress").textContent = s;
  }

  function fmt(x) { return x === null ? "–" : x.toFixed(3); }

  function show(q) {
    current = q;
    $("context-label").textContent = q.context_label;
    setImage($("context-img"), q.context_image);
    $("left-label").textContent = q.arm1_label;
    setImage($("left-img"), q.arm1_image);
    $("right-label").textContent = q.arm2_label;
    setImage($("right-img"), q.arm2_image);
    $("reason").textContent = "query " + q.id + " · learner's score " + fmt(q.score) + ", σ " + fmt(q.sigma);
    showProgress(q.progress);
    $("duel").hidden = false;
    say("");
    document.body.dataset.qid = q.id;
  }

  function next() {
    return api("GET", "/api/next?labeller=" + encodeURIComponent(labeller)).then(function (q) {
      if (q.done) {
        current = null;
        $("duel").hidden = true;
        showProgress(q.progress);
        say("Done: " + q.message + ". Thank you!");
        document.body.dataset.qid = "done";
        return;
      }
      show(q);
    }, function (e) {
      if (e.status === 503) {
        say(e.message);
        return new Promise(function (resolve) { setTimeout(resolve, 2000); }).then(next);
      }
      throw e;
    });
  }

  function fail(e) {
    say(e.message, true);
    if (e.status === 409) return next();
  }

  function act(call) {
    if (busy) return;
    busy = true;
    document.body.dataset.busy = "1";
    call().then(next).catch(fail).finally(function () {
      busy = false;
      delete document.body.dataset.busy;
    });
  }

  function answer(y) {
    if (!current) return;
    const id = current.id;
    act(function () { return api("POST", "/api/answer", { id: id, y: y }); });
  }

  function skip() {
    if (!current) return;
    const id = current.id;
    act(function () { return api("POST", "/api/skip", { id: id }); });
  }

  function undo() {
    act(function () { return api("POST", "/api/undo", { labeller: labeller }); });
  }

  function start() {
    $("who").hidden = true;
    $("who-am-i").textContent = "labeller " + labeller;
    $("summary-link").href = withParams("/summary", labeller);
    $("left").addEventListener("click", function () { answer(1); });
    $("right").addEventListener("click", function () { answer(0); });
    $("tie").addEventListener("click", function () { answer(0.5); });
    $("skip").addEventListener("click", skip);
    $("undo").addEventListener("click", undo);
    document.addEventListener("keydown", function (ev) {
      if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
      const keys = {
        ArrowLeft: function () { answer(1); },
        ArrowRight: function () { answer(0); },
        t: function () { answer(0.5); },
        s: skip,
        u: undo,
      };
      const f = keys[ev.key];
      if (!f) return;
      ev.preventDefault();
      f();
    });
    busy = true;
    next().catch(fail).finally(function () { busy = false; });
  }

  if (/^[A-Za-z0-9._@-]{1,64}$/.test(labeller)) {
    start();
  } else {
    $("who").hidden = false;
    $("who").addEventListener("submit", function (ev) {
      ev.preventDefault();
      labeller = $("who-name").value;
      localStorage.setItem("labeller", labeller);
      params.set("labeller", labeller);
      history.replaceState(null, "", "?" + params.toString());
      start();
    });
  }
})();
