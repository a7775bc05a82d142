# Итоги партий, рейтинги, профили, правила и подписи к картинкам досок.

## Итог партии

summary-title-running = Партия №{ $id } — идёт
summary-title-draw = Партия №{ $id } — ничья
summary-title-aborted = Партия №{ $id } — без результата
# «победа: Тафл-бот (уровень 2) (нападающие)» читалось со скобками подряд: сторона — в падеже.
summary-title-won = Партия №{ $id } — победа { $side ->
    [attackers] нападающих
   *[defenders] защитников
}: { $player }
summary-players = Нападающие: { $attackers } · Защитники: { $defenders }
summary-variant = Вариант: { $variant }{ $options }
summary-moves = Ходов: { $moves } ({ $plies ->
    [one] { $plies } полуход
    [few] { $plies } полухода
   *[many] { $plies } полуходов
})
summary-captured = Захвачено фигур: нападающими { $attackers }, защитниками { $defenders }
summary-duration = Длительность: { $duration }
summary-started = Начата { $when }
summary-rating-global = Рейтинг (общий): { $changes }
summary-rating-server = Рейтинг (на этом сервере): { $changes }
# Партия против бота идёт в отдельный рейтинг: уровни бота и люди, которые с ними играют.
summary-rating-bot-global = Рейтинг против бота (общий): { $changes }
summary-rating-bot-server = Рейтинг против бота (на этом сервере): { $changes }
# Сдача или ничья по соглашению до того, как обе стороны сделали ход: результат есть, рейтинга нет.
summary-too-soon-to-rate = На рейтинг не влияет: партия окончена до того, как обе стороны сделали ход.
summary-imported = Загруженная партия: на рейтинг не влияет.
summary-turning-point = Перелом партии: { $ply }-й полуход, { $side ->
    [attackers] нападающие сыграли
   *[defenders] защитники сыграли
} { $played }; движок предпочёл бы { $better }.
summary-no-turning-point = Разбор движком: ни один ход не отдал преимущества.
summary-review-pending = Разбор движком: идёт…
player-with-side = { $player } ({ $side })
# Бот со своей стороной, в одних скобках: «Тафл-бот (уровень 2, нападающие)».
bot-player-with-side = Тафл-бот (уровень { $level }, { $side })

conclusion-to-move = Ходит { $player }.
conclusion-king-escaped = Король ушёл на { $square }.
conclusion-king-captured = Король захвачен на { $square }.
conclusion-exit-fort = Король на { $square } укрылся в неприступной крепости на краю доски.
conclusion-encirclement = Нападающие окружили защитников.
conclusion-repetition-draw = Ничья: позиция повторилась трижды.
conclusion-repetition-loss = Позиция повторилась трижды — { $side } проигрывают.
conclusion-no-moves = Партия окончена: { $side } остались без ходов.
conclusion-resignation = { $player } сдаётся.
conclusion-resignation-unknown = Партия окончена сдачей.
conclusion-time = У игрока { $player } кончилось время.
conclusion-time-unknown = Партия окончена по времени.
conclusion-abandoned = Ходов от игрока { $player } не было { $days ->
    [one] { $days } день
    [few] { $days } дня
   *[many] { $days } дней
}, и соперник забрал победу.
conclusion-abandoned-unknown = Партия брошена, и победа засчитана сопернику.
conclusion-agreement = Ничья по соглашению.
conclusion-aborted = Партия прервана до того, как обе стороны сделали ход: без результата и рейтинга.
conclusion-bot-removed = Партию закончил игрок через две недели после того, как бота удалили с её сервера: без результата и рейтинга.

duration-short = { $days ->
    [0] { $hours ->
        [0] { $minutes ->
            [0] меньше минуты
           *[other] { $minutes } мин
        }
       *[other] { $hours } ч{ $minutes ->
            [0] {""}
           *[other] { " " }{ $minutes } мин
        }
    }
   *[other] { $days } дн.{ $hours ->
        [0] {""}
       *[other] { " " }{ $hours } ч
    }
}

## Рейтинги и профили

leaderboard-title = Таблица лидеров: { $family } ({ $scope })
scope-global = все серверы
scope-server = этот сервер
no-rated-games = Рейтинговых партий пока нет.
leaderboard-line = { $rank }. { $player } — { $rating } · партий: { $games }
leaderboard-provisional = ? — предварительный рейтинг (мало рейтинговых партий или давно не было ни одной); такие рейтинги идут после устоявшихся.
profile-title = { $player } ({ $scope })
profile-rating = { $family }: { $rating } · партий: { $games }
profile-record-attackers = За нападающих: побед { $wins }, поражений { $losses }, ничьих { $draws }
profile-record-defenders = За защитников: побед { $wins }, поражений { $losses }, ничьих { $draws }
profile-record-bot = Против бота: побед { $wins }, поражений { $losses }, ничьих { $draws }
profile-streak-win = Текущая серия: { $n ->
    [one] { $n } победа подряд
    [few] { $n } победы подряд
   *[many] { $n } побед подряд
}
profile-streak-loss = Текущая серия: { $n ->
    [one] { $n } поражение подряд
    [few] { $n } поражения подряд
   *[many] { $n } поражений подряд
}
profile-streak-draw = Текущая серия: { $n ->
    [one] { $n } ничья подряд
    [few] { $n } ничьи подряд
   *[many] { $n } ничьих подряд
}

## Подписи к картинкам досок

caption-move = Ход { $number } · { $status }
caption-to-move-attackers = ходят нападающие
caption-to-move-defenders = ходят защитники
caption-start = Начало · ходят нападающие
caption-start-defenders = Начало · ходят защитники
caption-result = { $result } · { $why }
caption-attackers-win = Победа нападающих
caption-defenders-win = Победа защитников
caption-draw = Ничья
caption-no-result = Без результата
caption-why-king-captured = король захвачен
caption-why-king-escaped = король ушёл
caption-why-exit-fort = крепость на краю
caption-why-encirclement = окружение
caption-why-repetition = повторение
caption-why-no-moves = нет ходов
caption-why-resignation = сдача
caption-why-agreement = по соглашению
caption-why-time = по времени
caption-why-abandoned = партия брошена
caption-why-aborted = прервана
caption-why-bot-removed = бота удалили с сервера

## Варианты и правила

variants-title = Варианты тафла
variant-line = `{ $id }` — { $name }: { $rules }
rules-otn = Правила в OTN
rule-escape-corner = король уходит в угол
rule-escape-edge = король уходит на край
rule-capture-strong = короля захватывают с четырёх сторон
rule-capture-strong-near-throne = короля захватывают вчетвером на троне, втроём рядом с ним, вдвоём в остальных местах
rule-capture-middleweight = короля захватывают в окружении (край, пустой трон и углы считаются)
rule-capture-weak = короля захватывают вдвоём, как любую фигуру
rule-king-armed = король вооружён
rule-king-unarmed = король безоружен
rule-shieldwall = стена щитов
rule-exit-fort = крепость на краю
rule-encirclement = окружение

rules-goal-corner = **Цель.** Защитники побеждают, когда король доходит до угловой клетки; нападающие — когда захватывают короля{ $encirclement ->
    [yes] { " " }или окружают всех защитников.
   *[no] .
}
rules-goal-edge = **Цель.** Защитники побеждают, когда король доходит до края доски; нападающие — когда захватывают короля{ $encirclement ->
    [yes] { " "}или окружают всех защитников.
   *[no] .
}
rules-captures = **Захват.** Фигуры ходят, как ладья, на любое число пустых клеток; фигуру захватывают, зажав её между двумя вражескими фигурами по вертикали или горизонтали.
rules-corners-hostile = Угловые клетки враждебны: участвуют в захвате как вражеская фигура.
rules-no-throne = **Трон.** Трона нет: центр — обычная клетка.
rules-throne = **Трон.** { $pass }; { $hostile }.
rules-throne-king-only = Вставать на него и проходить через него может только король
rules-throne-everyone = Вставать на него может только король; через пустой трон может проходить любая фигура
rules-throne-hostile-both = пустой трон враждебен обеим сторонам
rules-throne-hostile-attackers = пустой трон враждебен только нападающим
rules-throne-hostile-defenders = пустой трон враждебен только защитникам
rules-throne-hostile-none = трон не участвует в захватах
rules-king = **Король.** { $armed }; { $captured }.
rules-king-armed = Вооружён: участвует в захватах
rules-king-unarmed = Безоружен: в захватах не участвует
rules-king-strong = его захватывают, только окружив с четырёх сторон (нападающими или троном)
rules-king-strong-no-throne = его захватывают, только окружив нападающими с четырёх сторон
rules-king-strong-near-throne = на троне его окружают четыре нападающих, рядом с троном — три и трон; в остальных местах хватает двух нападающих (или одного и угловой клетки)
rules-king-middleweight = его захватывают, окружив со всех сторон; сторонами считаются и край доски, и пустой трон, и угловые клетки
# То же на доске без угловых клеток (король уходит на край).
rules-king-strong-near-throne-no-corners = на троне его окружают четыре нападающих, рядом с троном — три и трон; в остальных местах хватает двух нападающих
rules-king-middleweight-no-corners = его захватывают, окружив со всех сторон; сторонами считаются и край доски, и пустой трон
rules-king-weak = его захватывают вдвоём, как любую фигуру, где бы он ни стоял
rules-shieldwall = **Стена щитов.** Ряд фигур у края, зажатый с обоих концов и закрытый спереди, снимается целиком.
rules-shieldwall-corners = **Стена щитов.** Ряд фигур у края, зажатый с обоих концов и закрытый спереди, снимается целиком (угол может замкнуть ряд).
rules-exit-fort = **Крепость на краю.** Защитники побеждают и тогда, когда король стоит на краю доски, может ходить и укрыт в крепости, которую нельзя разрушить.
rules-repetition-draw = **Повторение.** Третье повторение позиции — ничья.
rules-repetition-mover-loses = **Повторение.** Проигрывает та сторона, что повторяет позицию в третий раз.
rules-repetition-mover-wins = **Повторение.** Побеждает та сторона, что повторяет позицию в третий раз.
rules-repetition-defenders-lose = **Повторение.** При третьем повторении позиции проигрывают защитники.
rules-repetition-ignore = **Повторение.** Позиции могут повторяться без последствий.
