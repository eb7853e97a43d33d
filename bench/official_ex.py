"""The baseline `npm run bench` measures sqlboard against: an evaluator shaped like BIRD's official
evaluation_ex.py (run_sqls_parallel / execute_model / execute_sql), written by us, python3 stdlib only.

A multiprocessing pool (fork, as on Linux) gets one apply_async job per (system, task) pair; each job
opens its own connection, runs the prediction, then the gold, and scores set(pred) == set(gold).
Errors score 0. The official script wraps each job in func_timeout (a thread per call); that package
is not in the stdlib, so a progress handler enforces the same per-pair limit here (cheaper, which
only favours the baseline). A missing prediction scores 0 without running anything.

Input (written by the bench from the files sqlboard loaded): JSON
  {"tasks": [[db_path, gold_sql], ...], "systems": [{"name": str, "sqls": [sql or null, ...]}, ...]}
Output: JSON {"correct": {system: count}} on stdout.
"""
import json
import multiprocessing as mp
import sqlite3
import sys
import time

exec_result = []


def result_callback(result):
    exec_result.append(result)


def execute_sql(predicted_sql, ground_truth, db_path, deadline):
    conn = sqlite3.connect(db_path)
    conn.set_progress_handler(lambda: 1 if time.monotonic() > deadline else 0, 10000)
    cursor = conn.cursor()
    cursor.execute(predicted_sql)
    predicted_res = cursor.fetchall()
    cursor.execute(ground_truth)
    ground_truth_res = cursor.fetchall()
    res = 0
    if set(predicted_res) == set(ground_truth_res):
        res = 1
    return res


def execute_model(predicted_sql, ground_truth, db_place, idx, meta_time_out):
    try:
        res = execute_sql(predicted_sql, ground_truth, db_place, time.monotonic() + meta_time_out)
    except KeyboardInterrupt:
        sys.exit(0)
    except Exception:
        res = 0
    return {'sql_idx': idx, 'res': res}


def run_sqls_parallel(sqls, db_places, num_cpus=1, meta_time_out=30.0):
    pool = mp.Pool(processes=num_cpus)
    for i, sql_pair in enumerate(sqls):
        predicted_sql, ground_truth = sql_pair
        if predicted_sql is None:
            exec_result.append({'sql_idx': i, 'res': 0})
            continue
        pool.apply_async(execute_model, args=(predicted_sql, ground_truth, db_places[i], i, meta_time_out), callback=result_callback)
    pool.close()
    pool.join()


def main():
    with open(sys.argv[1], encoding='utf-8') as f:
        data = json.load(f)
    num_cpus = int(sys.argv[2]) if len(sys.argv) > 2 else mp.cpu_count()
    tasks = data['tasks']
    sqls, db_places, owner = [], [], []
    for system in data['systems']:
        for (db_path, gold), pred in zip(tasks, system['sqls']):
            sqls.append((pred, gold))
            db_places.append(db_path)
            owner.append(system['name'])
    run_sqls_parallel(sqls, db_places, num_cpus=num_cpus)
    correct = {s['name']: 0 for s in data['systems']}
    for r in exec_result:
        correct[owner[r['sql_idx']]] += r['res']
    json.dump({'correct': correct}, sys.stdout)


if __name__ == '__main__':
    main()
