// The console's stylesheet and script, shipped inside the controller's code (no files to find at run time, no
// build step, no CDN). The pages work without the script: it only streams a live run's log tail.

/** `/console/assets/console.css`. */
export const CONSOLE_CSS = `
:root{color-scheme:light dark;--fg:#1d2430;--muted:#5b6573;--line:#d9dee5;--bg:#fff;--alt:#f5f7fa;--accent:#2457c5;--bad:#b42318;--ok:#1a7f37}
@media (prefers-color-scheme:dark){:root{--fg:#e6e9ee;--muted:#9aa4b2;--line:#333b47;--bg:#14181f;--alt:#1b212a;--accent:#7aa2ff;--bad:#ff7b72;--ok:#56d364}}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,sans-serif;color:var(--fg);background:var(--bg)}
header{display:flex;gap:1.2em;align-items:center;padding:.6em 1.2em;border-bottom:1px solid var(--line);background:var(--alt)}
header strong{margin-right:1em}
.grow{flex:1}
main{padding:1em 1.2em;max-width:1200px}
a{color:var(--accent)}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:.35em .6em;border-bottom:1px solid var(--line);vertical-align:top}
th{color:var(--muted);font-weight:600}
form.filters,form.inline{display:flex;gap:.6em;flex-wrap:wrap;align-items:end;margin:.5em 0 1em}
form.inline{display:inline-flex;margin:0 .4em 0 0}
label{display:flex;flex-direction:column;font-size:12px;color:var(--muted)}
input,select,button{font:inherit;padding:.3em .5em}
button{cursor:pointer}
button.danger{color:var(--bad)}
.state{font-weight:600}
.state-Succeeded{color:var(--ok)}
.state-Failed,.state-TimedOut,.state-Refused{color:var(--bad)}
.muted{color:var(--muted)}
.notice{padding:.6em .8em;border:1px solid var(--line);background:var(--alt);margin:.6em 0}
.notice.error{border-color:var(--bad)}
pre{white-space:pre-wrap;word-break:break-word;background:var(--alt);padding:.6em;border:1px solid var(--line);margin:.4em 0}
ol.log{list-style:none;padding:.4em .6em;margin:0;font:12px/1.5 ui-monospace,monospace;background:var(--alt);border:1px solid var(--line);max-height:32em;overflow:auto}
ol.log .label{color:var(--accent);margin-right:.5em}
ol.log .stderr{color:var(--bad)}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.2em 1em}
dt{color:var(--muted)}
dd{margin:0}
`;

/**
 * `/console/assets/console.js`: on a live run's page, follows `/console/runs/<id>/log` (Server-Sent Events) and
 * shows each new tail; reloads once the run ends, so the page shows its result. Text only: no markup is built
 * from what the server sends.
 */
export const CONSOLE_JS = `
(function(){
  var log=document.getElementById("log");
  if(!log||!log.dataset.stream||typeof EventSource==="undefined")return;
  var source=new EventSource(log.dataset.stream);
  source.addEventListener("tail",function(e){
    var steps=JSON.parse(e.data),items=[];
    for(var i=0;i<steps.length;i++){
      var li=document.createElement("li"),s=steps[i];
      if(s.source==="stderr")li.className="stderr";
      if(s.label){var b=document.createElement("span");b.className="label";b.textContent=s.label;li.appendChild(b);}
      li.appendChild(document.createTextNode(s.text));
      items.push(li);
    }
    log.replaceChildren.apply(log,items);
    log.scrollTop=log.scrollHeight;
    var live=document.getElementById("live");if(live)live.textContent="live";
  });
  source.addEventListener("end",function(){source.close();location.reload();});
})();
`;
