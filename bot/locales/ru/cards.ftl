# Слова на карточках итогов, профиля и таблицы лидеров.

card-player = Игрок { $n }
card-rated = { $variant } · рейтинговая партия
card-moves = Ходов: { $moves } ({ $plies ->
    [one] { $plies } полуход
    [few] { $plies } полухода
   *[many] { $plies } полуходов
})
card-pieces = Осталось фигур
card-king-distance = Королю до выхода
card-evaluation = Оценка
card-ply = полуход
card-attackers = Нападающие
card-defenders = Защитники
card-in-progress = Партия идёт
card-result = { $result } · { $why }
card-win-attackers = Победа нападающих
card-win-defenders = Победа защитников
card-draw = Ничья
card-no-result = Без результата
card-why-king-captured = король захвачен
card-why-king-escaped = король ушёл
card-why-exit-fort = крепость на краю
card-why-encirclement = окружение
card-why-repetition = повторение позиции
card-why-no-moves = нет ходов
card-why-resignation = сдача
card-why-agreement = по соглашению
card-why-time = по времени
card-why-abandoned = партия брошена
card-why-aborted = прервана
card-why-bot-removed = бота удалили с сервера
card-profile-global = Рейтинговых партий: { $games } · все серверы
card-profile-server = Рейтинговых партий: { $games } · этот сервер
card-rating = Рейтинг
card-games = партии
card-by-side = Результаты за каждую сторону
card-results = Результаты
card-as-attackers = За нападающих
card-as-defenders = За защитников
card-against-bot = Против бота
card-wins = победы
card-losses = поражения
card-draws = ничьи
card-most-played = Больше всего партий
card-streak-win = Текущая серия: { $n ->
    [one] { $n } победа
    [few] { $n } победы
   *[many] { $n } побед
} подряд
card-streak-loss = Текущая серия: { $n ->
    [one] { $n } поражение
    [few] { $n } поражения
   *[many] { $n } поражений
} подряд
card-streak-draw = Текущая серия: { $n ->
    [one] { $n } ничья
    [few] { $n } ничьи
   *[many] { $n } ничьих
} подряд
card-scope-global = все серверы
card-scope-server = этот сервер
card-leaderboard = Таблица лидеров
card-column-rating = Рейтинг
card-column-games = Партии
card-column-trend = Динамика
