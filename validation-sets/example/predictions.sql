SELECT count(singer_id) FROM singer
SELECT name, country, age FROM singer ORDER BY age
SELECT avg(age), min(age), max(age) FROM singer
SELECT song_name, song_release_year FROM singer ORDER BY age DESC LIMIT 1
SELECT country, count(*) FROM singer GROUP BY country
SELECT count(*), country FROM singer GROUP BY country
SELECT song_name FROM singer WHERE age > 30
SELECT location, name FROM stadium WHERE capacity >= 5000 AND capacity <= 10000
