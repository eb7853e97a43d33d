import Database from 'better-sqlite3';
const lean="SELECT key, status, columns, CASE WHEN row_set IS NULL THEN rows ELSE '[]' END AS rows, error, ms, timeout_ms, row_set FROM executions WHERE key IN (SELECT value FROM json_each(?))";
const full="SELECT key, status, columns, rows, error, ms, timeout_ms, row_set FROM executions WHERE key IN (SELECT value FROM json_each(?))";
const sql=process.argv[3]==='full'?full:lean;
const keys0=new Database(process.argv[2],{readonly:true}).prepare('select key from executions').pluck().all();
keys0.sort(()=>Math.random()-0.5);
const res={};
for (let rep=0;rep<9;rep++){
for (const [n,prag,sort] of [['plain',[],0],['cache32m',['cache_size=-32768'],0],['mmap',['mmap_size=268435456'],0],['sorted',[],1],['sorted+cache',['cache_size=-32768'],1]]){
 const db=new Database(process.argv[2]); db.pragma('journal_mode = WAL'); db.pragma('synchronous = NORMAL'); for(const p of prag) db.pragma(p);
 const s=db.prepare(sql).raw(true);
 let t=performance.now();const keys=sort?[...keys0].sort():keys0;let c=0;for(let at=0;at<keys.length;at+=2000){c+=s.all(JSON.stringify(keys.slice(at,at+2000))).length}
 (res[n]??=[]).push(performance.now()-t); db.close();
}}
for (const [n,v] of Object.entries(res)) {v.sort((a,b)=>a-b);console.log(n.padEnd(14), 'median', v[4].toFixed(0), 'all', v.map(x=>x.toFixed(0)).join(' '));}
