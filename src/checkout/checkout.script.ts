/**
 * The page's only script, inlined under the response's CSP nonce (no handler attributes). It never
 * navigates on a timer:
 * - on load it focuses and scrolls to `[data-outcome]`, what the last action produced (notice, Pay
 *   button, reference number, new state), so it is on the first screen of a phone;
 * - it counts the expiry down from the server's figure (the sandbox clock), silently, and says
 *   "less than 5 minutes" and "less than 1 minute" once each in the `#announce` live region (on
 *   opening, when already under);
 * - while the invoice is pending it polls the status every 2 s (and at zero): paid or expired goes
 *   straight to the merchant's redirect URL (or to this page showing the state); a partial payment
 *   swaps the summary and the payment section in place (parsed without the new page's <head> and
 *   <script>, whose nonce is not this page's), leaving a section with typed input alone;
 * - the copy button puts the reference number's digits on the clipboard and says so.
 */
export const SCRIPT = `(function(){
var b=document.body.dataset,a=document.getElementById('announce'),end=null,said=0,busy=false,done=false;
function say(t){if(!a)return;a.textContent='';setTimeout(function(){a.textContent=t},100)}
function p(n){return(n<10?'0':'')+n}
function f(s){var h=Math.floor(s/3600),m=Math.floor(s%3600/60);return h?h+':'+p(m)+':'+p(s%60):m+':'+p(s%60)}
function focusOutcome(){var o=document.querySelector('[data-outcome]');if(!o&&location.hash==='#pay'){o=document.querySelector('#pay h2');if(o)o.setAttribute('tabindex','-1')}if(o){o.focus({preventScroll:true});o.scrollIntoView({block:'center'})}}
function copyButtons(){var k=document.querySelectorAll('[data-copy]');for(var i=0;i<k.length;i++)(function(btn){btn.hidden=false;btn.addEventListener('click',function(){
var t=btn.dataset.copy,ok=function(){btn.textContent='Copied';say('Reference number '+t.split('').join(' ')+' copied.');setTimeout(function(){btn.textContent='Copy number'},3000)};
var old=function(){var r=document.createRange(),s=getSelection(),n=btn.parentNode.querySelector('.ref');r.selectNodeContents(n);s.removeAllRanges();s.addRange(r);try{document.execCommand('copy')?ok():say('Select the number to copy it.')}catch(e){say('Select the number to copy it.')}};
if(navigator.clipboard&&window.isSecureContext)navigator.clipboard.writeText(t).then(ok,old);else old()})})(k[i])}
function dirty(el){var f=el.querySelectorAll('input');for(var i=0;i<f.length;i++)if(f[i].value!==f[i].defaultValue)return true;return false}
function swap(){fetch(b.reload,{cache:'no-store'}).then(function(r){return r.ok?r.text():null}).then(function(h){if(!h)return;
var d=new DOMParser().parseFromString(h.replace(/<head>[\\s\\S]*<\\/head>|<script[\\s\\S]*?<\\/script>/g,''),'text/html'),kept=false,act=document.activeElement,tid=act&&act.getAttribute('data-testid');
['summary','pay'].forEach(function(id){var o=document.getElementById(id),n=d.getElementById(id);if(!o||!n)return;if(dirty(o)){kept=true;return}
var had=o.contains(act);n=document.adoptNode(n);o.replaceWith(n);if(had&&tid){var x=n.querySelector('[data-testid="'+tid+'"]');if(x)x.focus()}});
copyButtons();var due=document.querySelector('[data-testid="invoice-amount-due"]');
say('A payment arrived.'+(due?' '+due.textContent+' still due.':'')+(kept?' What you typed is kept.':''))}).catch(function(){})}
function poll(){if(busy||done||!b.poll)return;busy=true;fetch(b.poll,{cache:'no-store',headers:{accept:'application/json'}}).then(function(r){return r.ok?r.json():null}).then(function(j){busy=false;if(!j)return;
if(j.expires_in_seconds!=null)end=Date.now()+Number(j.expires_in_seconds)*1000;
if(j.status!==b.status){done=true;say(j.status==='fully_paid'?'Payment received.':j.status==='expired'?'This invoice has expired.':'This invoice was canceled.');location.replace(j.status!=='canceled'&&b.return?b.return:b.reload);return}
if(j.amount_received!==b.received){b.received=j.amount_received;swap()}}).catch(function(){busy=false})}
function tick(){var c=document.getElementById('countdown'),s=Math.max(0,Math.floor((end-Date.now())/1000));if(c)c.textContent=f(s);
var th=s>0&&s<=60?60:s>0&&s<=300?300:0;if(th&&th!==said){said=th;say('Less than '+(th===60?'1 minute':'5 minutes')+' left to pay this invoice.')}
if(s===0)poll();if(!done)setTimeout(tick,1000)}
focusOutcome();copyButtons();
if(b.seconds){end=Date.now()+Number(b.seconds)*1000;tick()}
if(b.poll)setInterval(poll,2000);
})();`;
